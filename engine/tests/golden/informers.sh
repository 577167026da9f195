# Informers and work queues: a resumed watch, a 410 Gone relist, the queue view.
kubectl create deployment web --image=nginx --replicas=2
sim settle
sim queues
sim watch break replicaset-controller --for 30s
kubectl scale deployment web --replicas=4
sim advance 5s
kubectl get rs
sim queues
sim settle
kubectl get rs
sim queues
sim watch break replicaset-controller --for 20s --gone
kubectl scale deployment web --replicas=1
kubectl scale deployment web --replicas=3
sim advance 10s
kubectl get pods
kubectl delete pod --all --wait=false
sim settle
kubectl get pods
sim queues
sim expect queue/replicaset-controller {.watch.relists} == 1
sim watch break replicaset-controller --for 1h
sim watch break replicaset-controller   # expect error
sim watch break nobody   # expect error
