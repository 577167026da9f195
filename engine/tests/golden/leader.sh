# Leader election: the Leases in kube-system, a kill, the standby taking over.
kubectl get lease -n kube-system
sim leader status
kubectl get events -n kube-system
sim advance 30s
kubectl get lease -n kube-system kube-controller-manager -o yaml
sim leader replicas 3
sim advance 10s
sim leader status
kubectl create deployment web --image=nginx --replicas=2
sim settle
sim leader kill kube-controller-manager
kubectl scale deployment web --replicas=4
sim advance 5s
kubectl get pods
sim settle
sim leader status
kubectl get pods
kubectl get events -n kube-system
kubectl get lease -n kube-system
sim expect leader/kube-controller-manager {.lastGapSeconds} >= 13
sim leader kill etcd   # expect error
sim leader replicas 9   # expect error
