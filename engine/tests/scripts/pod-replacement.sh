# The course's t0–t4 story: one of three gateway replicas deleted and replaced, on the
# course's three nodes, which hold only the gateway's Pods.
sim reset --dns=false
kubectl create deployment gateway --image=nginx:1.27 --replicas=3
kubectl rollout status deployment/gateway
sim expect deployment/gateway {.status.readyReplicas} == 3
# t1: delete one Pod without waiting; the ReplicaSet sees 2 at once.
kubectl delete pod -l app=gateway --field-selector spec.nodeName=node-2 --wait=false
sim advance 500ms
sim expect deployment/gateway {.status.readyReplicas} == 2
sim expect count pods -l app=gateway == 4
# t2–t4: the replacement is scheduled, started and Ready.
kubectl wait --for=condition=Ready pods -l app=gateway --timeout=2m
sim settle
sim expect deployment/gateway {.status.readyReplicas} == 3
sim expect count pods -l app=gateway --field phase=Running == 3
kubectl get events --field-selector reason=SuccessfulCreate
