# The request path: each request kubectl sends, and the stage that refused it —
# authentication (401), authorization (403), validation (422), validating admission
# (NamespaceLifecycle's 404), storage (409, etcd's timeout) — or the resourceVersion
# it was written at; a server dry run passes every stage and stores nothing.
kubectl create deployment web --image=nginx --replicas=2
sim settle
kubectl get pods
kubectl scale deployment web --replicas=3
kubectl get pods --as=alice   # expect error
kubectl create deployment Web --image=nginx   # expect error
kubectl create deployment web --image=nginx   # expect error
kubectl create deployment api --image=api -n shop   # expect error
kubectl create deployment api --image=api --dry-run=server
kubectl config use-context expired@kubeplay
kubectl get pods   # expect error
kubectl config use-context kubernetes-admin@kubeplay
kubectl get pods --as=bob --as-group=x   # expect error
sim etcd down etcd-1
kubectl scale deployment web --replicas=4   # expect error
kubectl get pods   # expect error
sim trace requests
sim trace request/1
sim trace request/3
sim trace request/4
sim trace request/5
sim trace request/6
sim trace request/8
sim trace request/9
sim trace request/10
sim trace request/last
sim trace request/99   # expect error
sim trace request/x   # expect error
