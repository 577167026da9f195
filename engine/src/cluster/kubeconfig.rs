//! The kubeconfig kubectl reads: contexts, each naming a cluster and a user, and the
//! current one (`kubectl config get-contexts|current-context|use-context`), and the
//! users the API server's authenticator knows.
//!
//! kubeplay's kubeconfig has kubeadm's admin context (`kubernetes-admin@kubeplay`,
//! whose user is in the `kubeadm:cluster-admins` group, bound to cluster-admin) and
//! three more a lesson can switch to: `alice` and `bob`, ordinary users with no
//! permissions until a binding grants some, and `expired`, whose token the API
//! server no longer accepts (every request: 401 Unauthorized).
//!
//! Upstream: kubectl `pkg/cmd/config/{get_contexts,current_context,use_context}.go`,
//! kubeadm's `admin.conf` (`kubeadm:cluster-admins`), the API server's authentication
//! filter (`endpoints/filters/authentication.go`: a bad token is 401 `Unauthorized`).

use super::*;
use crate::apiserver::rbac::UserInfo;

/// One context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KubeContext {
    /// Its name.
    pub name: String,
    /// The cluster.
    pub cluster: String,
    /// The user (AUTHINFO).
    pub user: String,
    /// Its default namespace (empty: `default`).
    pub namespace: String,
}

/// kubectl's kubeconfig.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kubeconfig {
    /// Contexts, sorted by name.
    pub contexts: Vec<KubeContext>,
    /// The current context's name.
    pub current: String,
}

/// The cluster's name in the kubeconfig.
pub const CLUSTER_NAME: &str = "kubeplay";

/// The admin context (kubeadm's `kubernetes-admin@<cluster>`).
pub const ADMIN_CONTEXT: &str = "kubernetes-admin@kubeplay";

/// The user whose token the API server no longer accepts.
pub use crate::apiserver::door::EXPIRED_USER;

impl Default for Kubeconfig {
    fn default() -> Self {
        let ctx = |user: &str| KubeContext {
            name: format!("{user}@{CLUSTER_NAME}"),
            cluster: CLUSTER_NAME.into(),
            user: user.into(),
            namespace: String::new(),
        };
        let mut contexts = vec![
            ctx("alice"),
            ctx("bob"),
            ctx(EXPIRED_USER),
            ctx("kubernetes-admin"),
        ];
        crate::sorting::sort_by(&mut contexts, |a, b| a.name.cmp(&b.name));
        Kubeconfig {
            contexts,
            current: ADMIN_CONTEXT.into(),
        }
    }
}

impl Kubeconfig {
    /// The current context.
    pub fn current_context(&self) -> Option<&KubeContext> {
        self.contexts.iter().find(|c| c.name == self.current)
    }
}

pub use crate::apiserver::door::authenticate;

impl Cluster {
    /// kubectl's kubeconfig.
    pub fn kubeconfig(&self) -> &Kubeconfig {
        &self.kubeconfig
    }

    /// `kubectl config use-context NAME`.
    pub fn use_context(&mut self, name: &str) -> Result<(), String> {
        if !self.kubeconfig.contexts.iter().any(|c| c.name == name) {
            return Err(format!("no context exists with the name: \"{name}\""));
        }
        self.kubeconfig.current = name.to_string();
        Ok(())
    }

    /// The user of the current context, as the authenticator finds it (None: its
    /// token is not accepted).
    pub fn current_user(&self) -> Option<UserInfo> {
        authenticate(&self.kubeconfig.current_context()?.user)
    }
}
