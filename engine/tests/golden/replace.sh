# kubectl replace: a PUT of the manifest as written. Its resourceVersion is the
# precondition: a manifest read before someone else wrote the object gets 409 Conflict.
# A patch naming metadata.resourceVersion makes it a precondition too.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl replace   # expect error
kubectl replace -f - <<EOF   # expect error
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  resourceVersion: "1"
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.27
EOF
kubectl replace -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.27
EOF
kubectl get deployment web -o jsonpath='{.spec.replicas} {.metadata.generation}'
kubectl replace -f - <<EOF   # expect error
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 3
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: app
        image: nginx:1.27
EOF
kubectl patch deployment web -p '{"metadata":{"resourceVersion":"1"},"spec":{"replicas":4}}'   # expect error
kubectl get deployment web -o jsonpath={.spec.replicas}
kubectl patch deployment web -p '{"spec":{"replicas":4}}'
sim trace request/last
