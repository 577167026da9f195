# The admission plugins a learner meets: LimitRanger fills in a container's missing
# requests and limits and refuses one outside the range; Pod Security refuses what a
# namespace's enforce level forbids, warns about Deployments whose Pods it would refuse,
# and names the Pods already there when a namespace's level gets stricter.
kubectl create namespace team
kubectl apply -f limitrange.yaml
kubectl get limitrange -n team
kubectl get limits container-bounds -n team -o yaml
kubectl describe limitrange container-bounds -n team
kubectl apply -f bad-limitrange.yaml   # expect error
kubectl create deployment web --image=nginx -n team
sim settle
kubectl get pods -n team -o jsonpath='{.items[0].metadata.annotations}'
kubectl get pods -n team -o jsonpath='{.items[0].spec.containers[0].resources}'
kubectl apply -f greedy-pod.yaml   # expect error
kubectl describe namespace team
kubectl create namespace locked
kubectl label namespace locked pod-security.kubernetes.io/enforce=strict   # expect error
kubectl label namespace locked pod-security.kubernetes.io/warn-version=1.30   # expect error
kubectl create deployment shop --image=nginx --replicas=3 -n locked
sim settle
kubectl label namespace locked pod-security.kubernetes.io/enforce=baseline
kubectl label namespace locked pod-security.kubernetes.io/enforce=restricted --overwrite
kubectl apply -f privileged-pod.yaml   # expect error
kubectl apply -f hardened-pod.yaml
kubectl create deployment api --image=nginx -n locked
sim advance 3s
kubectl get events -n locked --field-selector reason=FailedCreate -o jsonpath='{.items[0].message}'
kubectl label namespace locked pod-security.kubernetes.io/enforce=baseline pod-security.kubernetes.io/warn=restricted --overwrite
kubectl apply -f privileged-pod.yaml   # expect error
