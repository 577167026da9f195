# The learner's own controller: the course's desired-state loop as a controller of
# PodSets, in JavaScript, beside the built-in controllers.
kubectl apply -f ../../controllers/podset-crd.yaml
sim settle
sim controller status   # expect error
sim controller run --for podsets --owns pods -f ../../controllers/desired-state-loop.js
kubectl apply -f ../../controllers/podset-web.yaml
sim settle
kubectl get podsets
kubectl get pods -l app=web -o custom-columns=NAME:.metadata.name,OWNER:.metadata.ownerReferences[0].name,CONTROLLER:.metadata.ownerReferences[0].controller
sim log --tail 6
sim controller status
kubectl get role my-controller -o yaml
kubectl auth can-i create pods --as system:serviceaccount:default:my-controller
kubectl auth can-i create deployments --as system:serviceaccount:default:my-controller   # expect error
sim queues my-controller
# Every Pod deleted: the loop makes them again, one per round.
kubectl delete pods -l app=web --wait=false
sim settle
kubectl get podsets
# A scale by hand is taken back to what the PodSet declares.
kubectl patch podset web --type merge -p '{"spec":{"replicas":1}}'
sim settle
kubectl get podsets
sim controller pause
kubectl patch podset web --type merge -p '{"spec":{"replicas":2}}'
sim settle
kubectl get podsets
sim controller resume
sim settle
kubectl get podsets
kubectl delete podset web
sim settle
kubectl get pods -l app=web
