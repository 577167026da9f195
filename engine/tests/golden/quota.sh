# ResourceQuota, the validating admission that keeps a namespace within its hard
# limits: status filled by the resourcequota controller, a Pod past the limit refused
# with "exceeded quota" (a ReplicaSet records FailedCreate and retries), a quota on
# requests or limits refusing Pods that do not set them, and the request path naming
# the stage.
kubectl create quota q --hard=pods=3
kubectl get quota
sim settle
kubectl get quota
kubectl describe quota q
kubectl create deployment gateway --image=nginx:1.27 --replicas=3
sim settle
kubectl get quota
kubectl scale deployment gateway --replicas=4
sim advance 3s
kubectl get deployment gateway
kubectl get events --field-selector reason=FailedCreate
kubectl scale deployment gateway --replicas=3
sim settle
kubectl apply -f pod.yaml   # expect error
sim trace request/last
kubectl create quota compute --hard=requests.cpu=1,limits.memory=1Gi
sim settle
kubectl get quota
kubectl delete quota q
kubectl apply -f pod.yaml   # expect error
kubectl create quota q --hard=pods --dry-run=client -o yaml   # expect error
kubectl create quota q2 --hard=pods=3,requests.cpu=1,limits.memory=1Gi,count/deployments.apps=2 --scopes=BestEffort -n dev --dry-run=client -o yaml
kubectl create quota q3 --hard=pods=abc   # expect error
kubectl create quota compute --hard=pods=1   # expect error
