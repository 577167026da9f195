# notes-api: two replicas over three nodes; a node dies.
kubectl create deployment notes-api --image=notes-api:1.0 --replicas=2
sim settle
sim expect deployment/notes-api {.status.availableReplicas} == 2
sim node down node-1
sim advance 40s
sim expect node/node-1 {.status.conditions[?(@.type=="Ready")].status} == True
sim advance 20s
sim expect node/node-1 {.status.conditions[?(@.type=="Ready")].status} == Unknown
sim expect node/node-1 {.spec.taints[*].effect} == "NoExecute NoSchedule"
kubectl get nodes
sim advance 300s
sim settle --max 2m
sim expect deployment/notes-api {.status.readyReplicas} == 2
sim expect count pods -l app=notes-api --field spec.nodeName=node-1 <= 1
kubectl get pods -o wide
sim node up node-1
sim settle
sim expect count pods -l app=notes-api == 2
