# The API server as a failing part: kubectl's words for a refused connection (counted
# against kubectl v1.32 with nothing listening), what still works client-side, and the
# cluster catching up when it is back.
kubectl create deployment web --image=nginx:1.27 --replicas=3
sim settle
sim apiserver status
sim apiserver down
sim apiserver down   # expect error
sim apiserver status
kubectl get pods   # expect error
kubectl describe deployment web   # expect error
kubectl scale deployment web --replicas=5   # expect error
kubectl delete pod -l app=web   # expect error
kubectl rollout restart deployment/web   # expect error
kubectl logs deploy/web   # expect error
kubectl taint nodes node-1 a=b:NoSchedule   # expect error
kubectl create deployment api --image=api:1.0   # expect error
kubectl create deployment api --image=api:1.0 -n shop   # expect error
kubectl create service nodeport web2 --tcp=80:80   # expect error
kubectl create pdb web --selector=app=web --min-available=2   # expect error
kubectl create namespace shop   # expect error
kubectl create deployment api --image=api:1.0 --dry-run=client -o yaml
kubectl version   # expect error
kubectl version --client
sim node add node-4   # expect error
sim advance 2m
sim settle
sim apiserver up
sim settle
kubectl get nodes
kubectl scale deployment web --replicas=5
sim settle
kubectl get deployment web
