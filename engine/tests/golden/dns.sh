# The cluster DNS add-on: CoreDNS's Pods are ordinary Pods in kube-system behind the
# kube-dns Service at 10.96.0.10, and a name resolves only while one of them is Ready.
# What it answers a Pod (sim nslookup, as busybox prints it): Service records, a
# headless Service's endpoints and their own names, ExternalName CNAMEs, Pod A
# records (pods insecure) and PTR records.
sim reset
kubectl get deploy,pods -n kube-system
sim advance 10s
kubectl get deploy,pods -n kube-system -o wide
kubectl get svc,endpointslices -n kube-system
kubectl describe svc kube-dns -n kube-system
kubectl get configmap coredns -n kube-system -o jsonpath='{.data.Corefile}'
kubectl cluster-info
kubectl create deployment api --image=nginx:1.27 --replicas=2
kubectl expose deployment api --port 80
kubectl expose deployment api --name api-pods --cluster-ip=None --port 80
kubectl create service externalname docs --external-name docs.example.com
kubectl apply -f statefulset.yaml
sim settle
kubectl get pods -o wide
sim nslookup api
sim nslookup api.default
sim nslookup kubernetes.default.svc.cluster.local
sim nslookup kube-dns -n kube-system
sim nslookup api-pods
sim nslookup web-0.web
sim nslookup web-9.web   # expect error
sim nslookup docs
sim nslookup 10-244-1-2.default.pod
sim nslookup 10-244-1-2.default.pod.cluster.local
sim nslookup 10.96.0.1
sim nslookup 10.96.0.10
sim nslookup 10.244.1.4
sim nslookup 10.244.1.3   # expect error
sim nslookup 10.244.9.9   # expect error
sim nslookup missing   # expect error
sim nslookup api -n kube-system   # expect error
# Without a Ready CoreDNS nothing answers; the Deployment brings them back.
kubectl scale deployment coredns -n kube-system --replicas=0
sim advance 40s
kubectl get endpointslices -n kube-system
sim nslookup api   # expect error
kubectl scale deployment coredns -n kube-system --replicas=2
sim advance 20s
sim nslookup api
