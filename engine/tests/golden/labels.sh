# kubectl label and annotate: their own words for every outcome.
kubectl apply -f web.yaml
sim settle
kubectl label deployment web tier=frontend
kubectl label deployment web tier=frontend
kubectl label deployment web tier=backend # expect error
kubectl label deployment web tier=backend team=a # expect error
kubectl label deployment web tier=backend --overwrite
kubectl label deployment web tier-
kubectl label deployment web tier-
kubectl label deployment web 'a=b c' # expect error
kubectl label deployment web a=b=c # expect error
kubectl label deployment web a=b a- # expect error
kubectl label deployment web # expect error
kubectl label deployment web a=b deployment/web # expect error
kubectl label a=b # expect error
kubectl label pods --all -l app=web x=y # expect error
kubectl label pods -l app=web role=server
kubectl get pods --show-labels
kubectl label pods --all role-
kubectl label pods -l app=nothing role=server
kubectl label pods web-nope x=y # expect error
kubectl annotate deployment web note=one
kubectl annotate deployment web note=two # expect error
kubectl annotate deployment web note=two --overwrite
kubectl annotate deployment web kubernetes.io/change-cause='first cause'
kubectl annotate deployment web kubernetes.io/change-cause='second cause'
kubectl annotate deployment web note- a=b note # expect error
kubectl annotate deployment web a=b a- # expect error
kubectl annotate deployment web # expect error
kubectl annotate deployment web note-
kubectl get deployment web -o 'jsonpath={.metadata.annotations}{"\n"}'
kubectl label deployment web 'a b=c' # expect error
kubectl label deployment web example.com/tier=db
kubectl label deployment web /tier=db # expect error
kubectl annotate deployment web 'bad key=x' # expect error
