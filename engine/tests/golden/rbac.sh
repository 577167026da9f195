# The request path's first two stages: who kubectl is (kubeconfig contexts, --as), the
# API server's 401 for a token it no longer accepts, and RBAC's 403 for each verb as
# kubectl v1.33 words it; auth can-i (with --list) and the RBAC generators.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl config get-contexts
kubectl config current-context
kubectl auth whoami
kubectl get clusterroles
kubectl get clusterrolebindings -o wide
kubectl auth can-i '*' '*'
kubectl auth can-i list pods --as=alice   # expect error
kubectl auth can-i --list --as=alice
kubectl config use-context alice@kubeplay
kubectl auth whoami
kubectl get pods   # expect error
kubectl get pods,deployments   # expect error
kubectl get deployment web   # expect error
kubectl get nodes   # expect error
kubectl get pods -A   # expect error
kubectl describe deployment web   # expect error
kubectl logs deploy/web   # expect error
kubectl delete pod -l app=web   # expect error
kubectl scale deployment web --replicas=3   # expect error
kubectl label deployment web tier=fe   # expect error
kubectl rollout restart deployment/web   # expect error
kubectl cordon node-1   # expect error
kubectl expose deployment web --port=80   # expect error
kubectl create deployment api --image=api:1.0   # expect error
kubectl create namespace shop   # expect error
kubectl create -f web.yaml   # expect error
kubectl apply -f web.yaml   # expect error
kubectl get pods --no-such-flag   # expect error
kubectl get pods --as=bob   # expect error
kubectl auth can-i create deployments   # expect error
kubectl auth can-i get pods/log   # expect error
kubectl auth can-i list nodes   # expect error
kubectl auth can-i fly pods   # expect error
kubectl auth can-i get /healthz
kubectl auth can-i list foos   # expect error
kubectl auth can-i   # expect error
kubectl config use-context kubernetes-admin@kubeplay
kubectl create role pod-reader --verb=get,list,watch --resource=pods,pods/log
kubectl create rolebinding alice-reads --role=pod-reader --user=alice
kubectl create rolebinding bob-edits --clusterrole=edit --user=bob --group=devs --serviceaccount=default:ci
kubectl get roles
kubectl get rolebindings -o wide
kubectl get pods --as=alice
kubectl logs deploy/web --as=alice   # expect error
kubectl get deployments --as=alice   # expect error
kubectl auth can-i --list --as=alice
kubectl scale deployment web --replicas=3 --as=bob
kubectl scale deployment web --replicas=3 --as=carol --as-group=devs
kubectl create role r --verb=use --resource=pods   # expect error
kubectl create role r --resource=pods   # expect error
kubectl create role r --verb=get   # expect error
kubectl create role r --verb=get --resource=foos   # expect error
kubectl create rolebinding rb --user=alice   # expect error
kubectl create clusterrolebinding crb --user=alice   # expect error
kubectl create rolebinding rb --role=r --serviceaccount=bad   # expect error
kubectl create clusterrole cr --verb=create --non-resource-url=/healthz   # expect error
kubectl create rolebinding dangling --role=missing --user=alice
kubectl get pods --as=alice
kubectl get services --as=alice   # expect error
kubectl auth can-i list services --as=alice   # expect error
kubectl config use-context expired@kubeplay
kubectl get pods   # expect error
kubectl auth whoami   # expect error
kubectl config use-context nope   # expect error
kubectl config get-contexts nope   # expect error
kubectl config get-contexts -o name
