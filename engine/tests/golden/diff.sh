# kubectl diff: the object as it is beside what applying the file would make of it (the
# API server's answer to the same apply as a dry run), as `diff -u -N` prints the two.
# Differences are exit status 1 with nothing more said; none is silence.
kubectl diff -f - <<EOF   # expect error
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
EOF
kubectl diff -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
EOF
kubectl diff -f - <<EOF   # expect error
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: safe
  retries: "3"
EOF
kubectl get configmap settings -o jsonpath='{.data.mode}'
kubectl create secret generic token --from-literal=value=old
kubectl diff -f - <<EOF   # expect error
apiVersion: v1
kind: Secret
metadata:
  name: token
stringData:
  value: new
EOF
kubectl diff   # expect error
kubectl diff -f x.yaml extra   # expect error
