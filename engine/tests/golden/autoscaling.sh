# The HorizontalPodAutoscaler as kubectl shows it: kubectl autoscale and its refusals,
# get hpa's TARGETS before and after the first readings, kubectl top pods and nodes,
# a scale-up under load with its Event and conditions, the five-minute scale-down
# stabilization, and the API server's refusals of a bad HPA.
kubectl apply -f hpa-web.yaml
sim settle
kubectl autoscale deployment web --min=2 --max=10 --cpu-percent=50
kubectl autoscale deployment web --min=1   # expect error
kubectl autoscale deployment web --max=0   # expect error
kubectl autoscale deployment web --min=5 --max=3   # expect error
kubectl autoscale pod web --max=3   # expect error
kubectl get hpa
sim advance 30s
kubectl get hpa
kubectl top pods
kubectl top nodes
kubectl top pods --sort-by=disk   # expect error
sim load deployment/web --cpu 80%
sim advance 30s
kubectl top pods --sort-by=cpu
kubectl get hpa
kubectl describe hpa web
sim load deployment/web --stop
sim advance 2m
kubectl describe hpa web
sim advance 4m
kubectl get hpa
kubectl get events --field-selector involvedObject.kind=HorizontalPodAutoscaler
kubectl apply -f - <<YAML   # expect error
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: bad}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 0
  maxReplicas: 0
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization}}
YAML
kubectl get hpa web -o yaml
# Request traffic as the load: 170 requests per second at 2 ms of CPU each, through
# a Service in front of the Deployment.
kubectl delete hpa web
kubectl scale deployment web --replicas=2
kubectl expose deployment web --port 80
sim settle
kubectl autoscale deployment web --min=2 --max=10 --cpu-percent=50
sim traffic service/web --rps 170 --for 20m
sim traffic service/web --rps 170 --cpu-per-request 20s   # expect error
sim advance 31s
kubectl top pods
kubectl get hpa
sim advance 16s
kubectl get hpa
kubectl describe hpa web
# Dry runs create nothing.
kubectl autoscale deployment web --max=3 --name=other --dry-run=client
kubectl autoscale deployment web --max=3 --name=other --dry-run=server
kubectl get hpa other   # expect error
