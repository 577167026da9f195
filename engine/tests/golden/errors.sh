# Manifests and commands that are wrong get kubectl's error and change nothing.
kubectl apply -f missing.yaml # expect error
kubectl apply -f bad-type.yaml # expect error
kubectl apply -f unknown-kind.yaml # expect error
kubectl apply -f - <<EOF # expect error
apiVersion: apps/v1
kind: Deployment
metadata:
  name: mismatch
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers: [{name: c, image: nginx}]
EOF
kubectl apply -f - <<EOF # expect error
apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  containers:
  - name: c
    image: busybox
    imagePullPolice: Always
EOF
kubectl create -f - <<EOF # expect error
apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
  labelz: {app: typo}
spec:
  replica: 2
  selector:
    matchLabels: {app: typo}
  template:
    metadata:
      labels: {app: typo}
    spec:
      containers: [{name: c, image: nginx, imagePullPolice: Always}]
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  containers:
  - name: c
    image: busybox
    imagePullPolicy: Always
EOF
kubectl get deployments
kubectl get all
kubectl create deployment x # expect error
kubectl scale deployment nope --replicas=1 # expect error
kubectl frob # expect error
kubectl get pods -l 'app in' # expect error
frobnicate --now # expect error
kubectl get pods -o 'jsonpath={.items[' # expect error
kubectl get pods 'unterminated # expect error
kubectl drain node-1
kubectl delete pod solo --force
kubectl apply -f - <<EOF # expect error
apiVersion: apps/v1
kind: Deployment
metadata: {name: zero}
spec:
  selector: {matchLabels: {app: zero}}
  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: zero}}
    spec: {containers: [{name: c, image: nginx}]}
EOF
kubectl apply -f - <<EOF # expect error
apiVersion: apps/v1
kind: Deployment
metadata: {name: recreate}
spec:
  selector: {matchLabels: {app: recreate}}
  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}
  template:
    metadata: {labels: {app: recreate}}
    spec: {containers: [{name: c, image: nginx}]}
EOF
kubectl apply -f - <<EOF # expect error
apiVersion: apps/v1
kind: Deployment
metadata: {name: over}
spec:
  selector: {matchLabels: {app: over}}
  strategy: {rollingUpdate: {maxSurge: 200%, maxUnavailable: 150%}}
  template:
    metadata: {labels: {app: over}}
    spec: {containers: [{name: c, image: nginx}]}
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: surge}
spec:
  selector: {matchLabels: {app: surge}}
  strategy: {rollingUpdate: {maxSurge: 200%, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: surge}}
    spec: {containers: [{name: c, image: nginx}]}
EOF
kubectl create -f web.yaml
kubectl create -f web.yaml # expect error
kubectl apply -f - <<EOF # expect error
apiVersion: v1
kind: Pod
metadata: {name: first}
spec: {containers: [{name: c, image: busybox, imagePullPolice: Always}]}
---
apiVersion: v1
kind: Pod
metadata: {name: second}
spec: {containers: [{name: c, image: busybox}]}
EOF
kubectl apply --validate=warn -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: warned}
spec: {containers: [{name: c, image: busybox, imagePullPolice: Always}]}
EOF
kubectl create --validate=false -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: ignored}
spec: {containers: [{name: c, image: busybox, imagePullPolice: Always}]}
EOF
kubectl apply --validate -f - <<EOF # expect error
apiVersion: v1
kind: Pod
metadata: {name: strict}
spec: {containers: [{name: c, image: busybox, imagePullPolice: Always}]}
EOF
kubectl apply -f web.yaml --validate=foo # expect error
kubectl create -f web.yaml --validate=foo # expect error
kubectl version --client
kubectl version --client=true
kubectl version
kubectl version extra # expect error
kubectl version --client extra
kubectl version -o wide # expect error
