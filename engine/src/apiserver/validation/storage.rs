//! The storage.k8s.io API group (`pkg/apis/storage/validation/validation.go`):
//! StorageClasses.

use crate::api::*;

/// `ValidateStorageClass` and `ValidateStorageClassUpdate`: a provisioner, and
/// parameters fixed after creation.
pub(super) fn validate_storage_class(
    causes: &mut Vec<String>,
    sc: &StorageClass,
    old: Option<&Object>,
) {
    if sc.provisioner.is_empty() {
        causes.push("provisioner: Required value".into());
    }
    if let Some(Object::StorageClass(o)) = old {
        if o.provisioner != sc.provisioner || o.parameters != sc.parameters {
            causes.push("parameters: Forbidden: updates to parameters are forbidden.".into());
        }
    }
}
