# etcd's quorum: 3 members tolerate one failure, not two. Without a quorum the API
# server still answers (version, discovery, client-side checks), but every read and
# write that reaches the store times out; the leaders of the controller manager and the
# scheduler give up their Leases and restart, and back with a quorum the restarted ones
# lead again 15 s later with fresh node heartbeats: no node goes NotReady.
kubectl create deployment web --image=nginx:1.27 --replicas=3
sim settle
sim etcd status
sim etcd members 3
sim etcd down etcd-1
sim etcd status
kubectl scale deployment web --replicas=4
sim settle
sim etcd down etcd-1   # expect error
sim etcd down etcd-9   # expect error
sim etcd down etcd-2
sim etcd status
sim etcd members 5   # expect error
kubectl get pods   # expect error
kubectl get pods --no-such-flag   # expect error
kubectl scale deployment web --replicas=5   # expect error
kubectl delete pod -l app=web   # expect error
kubectl create deployment api --image=api:1.0   # expect error
kubectl create deployment api --image=api:1.0 --dry-run=client -o yaml
kubectl apply -f web.yaml   # expect error
kubectl create -f web.yaml   # expect error
kubectl version
kubectl get --raw /livez
kubectl get --raw /readyz   # expect error
sim node add node-4   # expect error
sim advance 2m
sim settle
sim etcd up etcd-2
sim advance 1s
kubectl get nodes
kubectl get pods
sim settle
kubectl get nodes
kubectl get pods
kubectl get events --field-selector involvedObject.kind=Node
sim etcd members 5
sim etcd down etcd-1
sim etcd down etcd-2
kubectl scale deployment web --replicas=3
sim etcd down etcd-3
kubectl get deployment web   # expect error
sim etcd up etcd-1
sim settle
kubectl get deployment web
