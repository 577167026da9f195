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
