# Services: the kubernetes Service, kubectl expose and create service, EndpointSlices and
# Endpoints following Pods (not ready, ready, terminating), describe, and the API
# server's allocation and validation errors.
kubectl get svc
kubectl get endpointslices
kubectl apply -f - <<ZZ
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, labels: {app: api}}
spec:
  replicas: 3
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: api:1.0
        ports:
        - {name: http, containerPort: 8080}
        readinessProbe:
          httpGet: {path: /healthz, port: http}
          periodSeconds: 5
ZZ
kubectl expose deployment api --port=80 --target-port=http --type=NodePort --dry-run=client -o yaml
kubectl apply -f - <<ZZ
apiVersion: v1
kind: Service
metadata: {name: api, labels: {app: api}}
spec:
  type: NodePort
  selector: {app: api}
  ports:
  - {name: web, port: 80, targetPort: http, nodePort: 30080}
ZZ
kubectl create service clusterip nothing --tcp=80:8080
kubectl create service clusterip peers --clusterip=None
sim advance 1s
kubectl get svc -o wide
kubectl get endpointslices
sim advance 3s
kubectl get endpointslices -l kubernetes.io/service-name=api -o jsonpath='{range .items[*].endpoints[*]}{.targetRef.name} ready={.conditions.ready} serving={.conditions.serving}{"\n"}{end}'
kubectl get endpoints api
kubectl describe svc api
sim settle
kubectl get endpoints
kubectl describe svc api
kubectl describe endpoints api
kubectl describe endpointslice -l kubernetes.io/service-name=nothing
kubectl get endpointslice -l kubernetes.io/service-name=nothing -o yaml
kubectl get svc api -o yaml
kubectl delete pod -l app=api --wait=false
sim advance 1s
kubectl get endpointslices -l kubernetes.io/service-name=api -o jsonpath='{range .items[*].endpoints[*]}{.targetRef.name} ready={.conditions.ready} serving={.conditions.serving} terminating={.conditions.terminating}{"\n"}{end}'
kubectl get endpoints api
sim settle
kubectl scale deployment api --replicas=0
sim settle
kubectl get endpointslices,endpoints
# The API server's word on bad Services.
kubectl create service clusterip Bad_Name --tcp=80 # expect error
kubectl create service nodeport taken --tcp=80 --node-port=30080 # expect error
kubectl expose deployment api --name=again --cluster-ip=10.96.0.1 # expect error
kubectl expose deployment api --name=elsewhere --cluster-ip=192.168.0.10 # expect error
kubectl apply -f - <<ZZ # expect error
apiVersion: v1
kind: Service
metadata: {name: dup}
spec:
  selector: {app: api}
  ports:
  - {port: 80}
  - {port: 80}
ZZ
kubectl apply -f - <<ZZ # expect error
apiVersion: v1
kind: Service
metadata: {name: noports}
spec:
  selector: {app: api}
ZZ
kubectl get svc nothing -o jsonpath='{.spec.clusterIP}{"\n"}'
# A headless Service; this cluster runs no DNS add-on, so no name resolves (dns.sh).
kubectl scale deployment api --replicas=2
kubectl expose deployment api --name=api-pods --cluster-ip=None
sim settle
sim nslookup kubernetes.default # expect error
kubectl delete svc api nothing peers
sim settle
kubectl get svc,endpointslices,endpoints
# sessionAffinity ClientIP: the API server's default timeout, and its bounds.
kubectl create service clusterip sticky --tcp=80:8080
kubectl patch service sticky -p '{"spec":{"sessionAffinity":"ClientIP"}}'
kubectl get service sticky -o jsonpath='{.spec.sessionAffinity} {.spec.sessionAffinityConfig.clientIP.timeoutSeconds}'
kubectl patch service sticky -p '{"spec":{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":0}}}}'   # expect error
