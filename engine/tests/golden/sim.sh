# sim verbs: time, nodes, faults, checks and the watch log.
sim time
sim reset --nodes 2 --cpu 2 --memory 4Gi --dns=false
kubectl get nodes
sim node add edge-1 --cpu 1 --memory 2Gi --labels disk=nvme,topology.kubernetes.io/zone=z1 --taints edge=true:NoSchedule
kubectl get nodes --show-labels
kubectl create deployment api --image=busybox:1.36 --replicas=2
sim advance 90s
sim time
sim expect deployment/api {.status.readyReplicas} == 2
sim expect count pods -l app=api --field phase=Running >= 2
sim expect deployment/api {.status.readyReplicas} == 5 # expect error
sim node down node-1
sim advance 60s
kubectl get nodes
sim node up node-1
sim settle
kubectl get nodes
sim node remove edge-1
kubectl get nodes
sim log --tail 5
sim frobnicate # expect error
sim advance soon # expect error
sim reset --nodes 4 --zones 3
kubectl get nodes --show-labels
sim reset --nodes 4 --zones 27 # expect error
