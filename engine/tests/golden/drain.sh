# kubectl drain in kubectl's words: the filters, every eviction attempt, the timeout.
kubectl create deployment gateway --image=gateway:1.0 --replicas=6
kubectl create pdb gateway --selector=app=gateway --min-available=6
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: solo}
spec:
  nodeName: node-1
  containers: [{name: c, image: busybox}]
EOF
sim settle
kubectl get pods -o wide
kubectl drain node-1 --ignore-daemonsets # expect error
kubectl uncordon node-1
kubectl drain node-1 --ignore-daemonsets --pod-selector=app=gateway --timeout=20s # expect error
kubectl drain node-1 --ignore-daemonsets --force --timeout=20s # expect error
kubectl get pods -o wide
kubectl scale deployment gateway --replicas=8
kubectl rollout status deployment/gateway
kubectl drain node-1 --ignore-daemonsets --timeout=2m
kubectl drain node-1 --selector=x=y # expect error
kubectl drain node-9 # expect error
kubectl drain --selector=x=y # expect error
kubectl uncordon node-1
kubectl create pdb all --selector=app=gateway --min-available=8
sim advance 2s
kubectl get pods -o wide --field-selector spec.nodeName=node-2
kubectl drain node-2 --ignore-daemonsets --dry-run=client
kubectl get pods --field-selector spec.nodeName=node-2
kubectl get nodes node-2
# A Pod with an emptyDir volume: its data dies with it, so drain wants --delete-emptydir-data.
kubectl uncordon node-2
kubectl delete pdb all
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: scratch
spec:
  nodeName: node-3
  volumes:
  - name: tmp
    emptyDir: {}
  containers:
  - name: c
    image: nginx:1.27
    volumeMounts:
    - name: tmp
      mountPath: /tmp
YAML
sim advance 5s
kubectl drain node-3 --ignore-daemonsets --force --pod-selector=app!=gateway # expect error
kubectl drain node-3 --ignore-daemonsets --force --pod-selector=app!=gateway --delete-emptydir-data
