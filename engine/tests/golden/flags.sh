# Every flag is honoured or refused: a dry run changes nothing and says so.
kubectl create deployment web --image=nginx:1.27 --replicas=2 --dry-run=client
kubectl create deployment web --image=nginx:1.27 --replicas=2 --dry-run=server
kubectl create deployment web --image=nginx:1.27 --replicas=2 --dry-run
kubectl create deployment web --image=nginx:1.27 --dry-run=maybe # expect error
kubectl get deployments
kubectl apply -f web.yaml --dry-run=server
kubectl get deployments
kubectl apply -f web.yaml
sim settle
kubectl scale deployment web --replicas=5 --dry-run=client
kubectl label deployment web tier=db --dry-run=server
kubectl annotate deployment web note=x --dry-run=client
kubectl set image deployment/web nginx=nginx:1.28 --dry-run=client
kubectl cordon node-1 --dry-run=client
kubectl taint nodes node-1 k=v:NoSchedule --dry-run=server
kubectl rollout restart deployment/web --dry-run=client
kubectl delete deployment web --dry-run=client
kubectl drain node-1 --ignore-daemonsets --dry-run=client
kubectl get deployment web -o 'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.metadata.labels}{"\n"}'
kubectl get nodes
kubectl get deployments --dry-run=client # expect error
kubectl create deployment web --image=nginx:1.27 --dry-run=false # expect error
kubectl get --bogus # expect error
kubectl rollout status deployment/web --bogus=1 # expect error
kubectl scale -x # expect error
kubectl drain --help
kubectl rollout undo -h
kubectl help label
kubectl create deployment api --image=nginx:1.27 --replicas=3 --port=80 --dry-run=client -o yaml
kubectl create deployment api --image=registry.example.com/team/api:2.0 -n prod --dry-run=client -o yaml
kubectl create namespace prod --dry-run=client -o yaml
kubectl create pdb api --selector=app=api --min-available=2 --dry-run=client -o yaml
kubectl create priorityclass high --value=1000 --description=x --dry-run=client -o yaml
kubectl create deployment api --image=nginx --dry-run=client -o name
kubectl create deployment api --image=nginx -o wide # expect error
kubectl create deployment api2 --image=nginx --dry-run=server -o 'jsonpath={.metadata.name}{" "}{.spec.replicas}'
kubectl get deployments
kubectl create namespace staging -o name
kubectl apply -f web.yaml --server-side
kubectl scale deployment web --replicas=2 --current-replicas=5 # expect error
kubectl scale deployment web --replicas=2 --current-replicas=3
kubectl scale deployment web --replicas=2 --timeout=1m # expect error
kubectl delete -f web.yaml
kubectl delete -f web.yaml # expect error
kubectl delete -f web.yaml --ignore-not-found
kubectl rollout frob deployment/web # expect error
kubectl rollout status # expect error
kubectl wait pods/x # expect error
kubectl set frob x # expect error
kubectl patch deployment web # expect error
kubectl create deployment # expect error
kubectl apply # expect error
kubectl set
kubectl create # expect error
kubectl -n kube-node-lease get leases
kubectl --namespace=kube-node-lease get leases -o name
kubectl -n default cordon node-3 -n prod
kubectl delete pod x --now --grace-period=5 # expect error
kubectl delete pod x --force --grace-period=5 # expect error
kubectl delete pods --all -l app=web # expect error
kubectl delete pod x --grace-period=soon # expect error
