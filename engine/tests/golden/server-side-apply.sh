# Server-side apply and field ownership: a scale takes spec.replicas from the applier,
# the next apply conflicts with it, --force-conflicts takes it back; equal values are
# shared; a dropped field goes back to its default; the GitOps agent applies with force.
kubectl apply --server-side -f web.yaml
sim settle
kubectl scale deployment web --replicas=5
kubectl apply --server-side -f web.yaml   # expect error
kubectl get deployment web -o yaml --show-managed-fields
kubectl apply --server-side --force-conflicts -f web.yaml
kubectl get deployment web -o jsonpath='{.spec.replicas}'
kubectl apply --force-conflicts -f web.yaml   # expect error
kubectl set image deployment/web nginx=nginx:1.28
kubectl scale deployment web --replicas=4
kubectl apply --server-side -f web.yaml --field-manager=argocd   # expect error
kubectl apply --server-side -f web.yaml --field-manager=argocd --force-conflicts
kubectl get deployment web -o json --show-managed-fields
sim gitops on deployment/web --every 20s
kubectl scale deployment web --replicas=6
sim advance 25s
kubectl get deployment web
kubectl apply --server-side -f web.yaml
