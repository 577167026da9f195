# kubectl describe: pod, deployment, replicaset, node, with Events and Conditions.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl describe deployment web
kubectl describe rs
kubectl describe pods -l app=web
kubectl describe node node-1
kubectl describe pod missing # expect error
kubectl apply -f - <<ZZ
apiVersion: v1
kind: Pod
metadata: {name: with-init}
spec:
  initContainers:
  - {name: migrate, image: migrate:1.0}
  containers:
  - {name: app, image: nginx:1.27}
ZZ
sim advance 4s
kubectl get pod with-init
sim advance 20s
kubectl get pod with-init
kubectl describe pod with-init
