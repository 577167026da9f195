# Manifests and commands that are wrong get kubectl's error and change nothing.
kubectl apply -f missing.yaml
kubectl apply -f bad-type.yaml
kubectl apply -f unknown-kind.yaml
kubectl apply -f - <<EOF
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
kubectl apply -f - <<EOF
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
kubectl get deployments
kubectl get all
kubectl create deployment x
kubectl scale deployment nope --replicas=1
kubectl frob
kubectl get pods -l 'app in'
frobnicate --now
kubectl get pods -o 'jsonpath={.items['
kubectl get pods 'unterminated
kubectl drain node-1
kubectl delete pod solo --force
