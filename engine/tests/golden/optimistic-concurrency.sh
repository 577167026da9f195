# A manifest that carries a resourceVersion is a precondition: once anyone has written
# the object since, apply's patch and replace's update get the API server's 409.
kubectl apply -f web.yaml
sim settle
kubectl apply -f web-stale.yaml   # expect error
kubectl replace -f web-stale.yaml   # expect error
kubectl get deployment web -o jsonpath='{.spec.replicas}'
