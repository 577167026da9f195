# Where a Pod can be stuck, as kubectl shows it: pull refused, crash loop, not ready.
sim image-fail shop:typo
kubectl create deployment shop --image=shop:typo
sim advance 5s
kubectl get pods
sim advance 30s
kubectl describe pods -l app=shop
sim image-ok shop:typo
kubectl set image deployment/shop shop=shop:2.0
sim image-crash shop:2.0 --after 2s
sim advance 90s
kubectl get pods
kubectl get events --field-selector reason=BackOff
sim crash pod/nope # expect error
kubectl create deployment api --image=api:1.0
sim settle # expect error
sim unready pod/nope # expect error
kubectl get pods -l app=api -o name
