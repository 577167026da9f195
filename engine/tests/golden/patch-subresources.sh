# kubectl patch and the subresources: status belongs to its subresource (a status
# change sent to the main resource is dropped by the server: no change), the scale
# subresource changes only spec.replicas, and kubectl knows only status and scale.
kubectl create deployment gateway --image=gateway:1.0 --replicas=3
sim settle
kubectl patch deployment gateway -p '{"status":{"readyReplicas":5}}'
kubectl get deployment gateway -o jsonpath={.status.readyReplicas}
kubectl patch deployment gateway --subresource=status -p '{"status":{"observedGeneration":7}}'
kubectl get deployment gateway -o jsonpath={.status.observedGeneration}
kubectl patch deployment gateway --subresource=scale --type=merge -p '{"spec":{"replicas":2}}'
kubectl get deployment gateway -o jsonpath={.spec.replicas}
kubectl patch deployment gateway --subresource=foo -p '{}' # expect error
kubectl patch deployment gateway -p '{"spec":{"replicas":4},"status":{"readyReplicas":9}}'
kubectl get deployment gateway -o jsonpath={.spec.replicas}
