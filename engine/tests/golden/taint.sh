# kubectl taint in kubectl's words (taint.go and its utils.go).
kubectl taint nodes node-1 dedicated=db:NoSchedule
kubectl taint nodes node-1 dedicated=web:NoSchedule # expect error
kubectl taint nodes node-1 dedicated=web:NoSchedule --overwrite
kubectl taint nodes node-1 dedicated=db:PreferNoSchedule
kubectl get node node-1 -o 'jsonpath={.spec.taints}{"\n"}'
kubectl taint nodes node-1 dedicated:PreferNoSchedule-
kubectl taint nodes node-1 dedicated-
kubectl taint nodes node-1 dedicated- # expect error
kubectl taint nodes node-1 gpu:NoSchedule-   # expect error
kubectl taint nodes node-1 k=v:Sometimes # expect error
kubectl taint nodes node-1 'k=a b:NoSchedule' # expect error
kubectl taint nodes node-1 k # expect error
kubectl taint nodes node-1 k=v # expect error
kubectl taint nodes node-1 k=v:NoSchedule k=w:NoSchedule # expect error
kubectl taint nodes node-1 k=v:NoSchedule k- # expect error
kubectl taint nodes node-1 # expect error
kubectl taint k=v:NoSchedule # expect error
kubectl taint nodes k=v:NoSchedule # expect error
kubectl taint pods web k=v:NoSchedule # expect error
kubectl taint nodes --all -l x=y k=v:NoSchedule # expect error
kubectl taint nodes --all zone=a:PreferNoSchedule
kubectl taint nodes -l kubernetes.io/hostname=node-2 zone-
kubectl taint nodes node-9 k=v:NoSchedule # expect error
