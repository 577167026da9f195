# kubectl describe: pod, deployment, replicaset, node, with Events and Conditions.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl describe deployment web
kubectl describe rs
kubectl describe pods -l app=web
kubectl describe node node-1
kubectl describe pod missing
