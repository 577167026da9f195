# kubectl events: kubectl's own event printer (Kind/Name objects, repeated Events as
# `5s (x3 over 2m)`), --for, --types, -A and the printers.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim advance 20s
kubectl events
kubectl events --for deployment/web
kubectl events -A --types=Normal --no-headers --for deploy/web
kubectl scale deployment web --replicas=3
sim advance 3m
kubectl events --types=Warning
kubectl events --for pod/nope
kubectl events -n nope
kubectl events --for deploy/web -o jsonpath={.items[*].reason}
kubectl events -o name
kubectl events --for web # expect error
kubectl events --for nope/web # expect error
kubectl events --types=Bad # expect error
kubectl get events --field-selector source=deployment-controller,involvedObject.apiVersion=apps/v1 -o name
kubectl get pods --field-selector spec.restartPolicy=Always,spec.hostNetwork=false -o name
kubectl get secrets --field-selector type=Opaque
kubectl get ns --field-selector status.phase=Active -o name
