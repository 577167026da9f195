# kubectl get --watch: the objects as they are, then one line per write the API server
# sends while the clock runs, until --request-timeout (or the API server's own 30
# minutes). The table's header is printed once and its columns keep the widest cell
# they have held; --output-watch-events names each event; DELETED prints the object as
# it was last.
kubectl create deployment web --image=nginx --replicas=2
kubectl get pods -w --request-timeout=4s
kubectl scale deployment web --replicas=1
kubectl get pods -l app=web -w --output-watch-events --request-timeout=40s
kubectl get pods --watch-only -o name --request-timeout=10s
kubectl get deployment web -w -o wide --request-timeout=1s
kubectl get pods -A -w --no-headers --request-timeout=1s
# One object, its writes only; a field selector filters as the API server does.
kubectl set image deployment/web nginx=nginx:1.27
kubectl get deployment web -w -o jsonpath='{.status.updatedReplicas}/{.status.replicas}{"\n"}' --request-timeout=10s
kubectl get pods --field-selector=status.phase=Running -w -o name --request-timeout=5s
# Every printer: YAML separates documents; JSON events are one line each.
kubectl scale deployment web --replicas=2
kubectl get deployment web -w -o yaml --request-timeout=1s
kubectl get deployment web -w --output-watch-events -o jsonpath='{.type} {.object.spec.replicas}{"\n"}' --request-timeout=5s
kubectl get namespaces -w -o custom-columns=NAME:.metadata.name --request-timeout=1s
# Refusals, in kubectl's words.
kubectl get pods,deployments -w   # expect error
kubectl get all -w   # expect error
kubectl get pods nosuch -w   # expect error
kubectl get namespaces default kube-system -w   # expect error
kubectl get pods -w --request-timeout=soon   # expect error
kubectl get pods --output-watch-events   # expect error
