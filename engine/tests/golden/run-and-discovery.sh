# kubectl run, api-resources and api-versions (each also compared with real kubectl in
# engine/tests/real_kubectl.rs when kubectl is on PATH).
kubectl run solo --image=nginx
kubectl run t --image=busybox --port=80 --env=A=1 --restart=Never --dry-run=client -o yaml -- sh -c 'echo hi'
kubectl run t2 --image=busybox --command --dry-run=client -o yaml -- sleep 10
kubectl run --image=nginx # expect error
kubectl run x # expect error
kubectl run x --image=nginx --restart=Sometimes # expect error
kubectl run x --image=nginx --port=abc # expect error
sim advance 10s
kubectl get pod solo --show-labels
kubectl get pod solo -o jsonpath='{.spec.serviceAccountName} {.spec.containers[0].name}'
kubectl api-resources
kubectl api-resources --namespaced=false -o name
kubectl api-resources --api-group=apps -o wide
kubectl api-versions
