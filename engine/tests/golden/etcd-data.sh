# etcd you can look inside: the keys the API server writes (Nodes are "minions",
# Services "services/specs"), etcdctl's status and health, revisions and size that
# grow with history until the API server's compactor and a defragmentation give
# them back, a snapshot and its restore, a healthy etcd the API server cannot reach,
# and the loss of every member's data.
kubectl create deployment web --image=nginx:1.27 --replicas=2
kubectl create secret generic db --from-literal=password=s3cret
sim settle
sim etcdctl get /registry/deployments --prefix --keys-only
sim etcdctl get /registry/minions --prefix --keys-only
sim etcdctl get /registry/nodes --prefix --keys-only
sim etcdctl get /registry/secrets/default/db --print-value-only
sim etcdctl get /registry/pods --prefix --keys-only --limit 1
sim etcdctl endpoint status
sim etcdctl endpoint status -w table
sim etcdctl endpoint status -w json
sim etcdctl endpoint health
sim etcdctl endpoint status -w yaml   # expect error
sim etcdctl get   # expect error
sim etcdctl compact 999999   # expect error
sim etcd snapshot save before.db
sim etcd snapshot status before.db
kubectl set image deployment/web nginx=nginx:1.28
sim settle
kubectl create deployment api --image=api:1.0
sim settle
sim advance 11m
sim etcd status
sim etcdctl defrag
sim etcd status
sim etcd snapshot restore before.db
kubectl get deployments,replicasets
sim settle
kubectl get pods
sim etcd snapshot restore after.db   # expect error
sim etcd members 3
sim etcd disconnect
kubectl get pods   # expect error
kubectl get --raw /readyz   # expect error
sim etcdctl endpoint health --cluster
sim etcdctl endpoint status --cluster -w table
sim etcd status
sim etcd disconnect   # expect error
sim etcd reconnect
sim etcd isolate etcd-2
sim etcd isolate etcd-3
kubectl get pods   # expect error
sim etcdctl endpoint health --cluster   # expect error
sim etcdctl endpoint status --cluster
sim etcd rejoin etcd-2
sim etcd rejoin etcd-3
sim etcd wipe
kubectl get deployments,services,secrets,nodes
kubectl get namespaces
sim advance 1m
sim node ps node-1
sim etcd snapshot restore before.db
kubectl get nodes
sim settle
kubectl get pods
