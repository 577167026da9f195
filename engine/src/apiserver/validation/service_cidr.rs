//! ServiceCIDR and IPAddress (`ValidateServiceCIDR`, `ValidateServiceCIDRUpdate`,
//! `ValidateIPAddress`, `ValidateIPAddressUpdate` in
//! `pkg/apis/networking/validation/validation.go`).

use super::networking::{parse_cidr_sloppy, parse_ip_sloppy};
use crate::api::*;

fn q(s: &str) -> String {
    format!("{s:?}")
}

/// The CIDRs: one or two, each valid, at most one per family; on update, immutable
/// (a single-stack range may only gain a second family, its first CIDR kept).
pub(super) fn validate_service_cidr(c: &mut Vec<String>, sc: &ServiceCIDR, old: Option<&Object>) {
    let cidrs = &sc.spec.cidrs;
    if let Some(Object::ServiceCIDR(old)) = old {
        let grows = old.spec.cidrs.len() == 1
            && cidrs.len() == 2
            && cidrs.first() == old.spec.cidrs.first();
        if cidrs != &old.spec.cidrs && !grows {
            c.push(format!(
                "spec.cidrs: Invalid value: []string{{{}}}: field is immutable",
                cidrs.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ")
            ));
            return;
        }
    }
    match cidrs.len() {
        0 => return c.push("spec.cidrs: Required value: at least one CIDR required".into()),
        1 | 2 => {}
        _ => {
            return c.push(format!(
                "spec.cidrs: Invalid value: []string{{{}}}: may only hold up to 2 values",
                cidrs.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ")
            ))
        }
    }
    let mut families = Vec::new();
    for (i, cidr) in cidrs.iter().enumerate() {
        match parse_cidr_sloppy(cidr) {
            None => c.push(format!(
                "spec.cidrs[{i}]: Invalid value: {}: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
                q(cidr)
            )),
            Some((ip, _)) => families.push(ip.is_ipv4()),
        }
    }
    if families.len() == 2 && families[0] == families[1] {
        c.push(format!(
            "spec.cidrs[1]: Invalid value: {}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
            q(&cidrs[1])
        ));
    }
}

/// The name is the address; the parent is required, and immutable on update.
pub(super) fn validate_ip_address(c: &mut Vec<String>, ip: &IPAddress, old: Option<&Object>) {
    let name = &ip.metadata.name;
    if !name.is_empty() && parse_ip_sloppy(name).is_none() {
        c.push(format!(
            "metadata.name: Invalid value: {}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            q(name)
        ));
    }
    if let Some(Object::IPAddress(old)) = old {
        if old.spec.parent_ref != ip.spec.parent_ref {
            c.push("spec.parentRef: Invalid value: \"object\": field is immutable".into());
        }
        return;
    }
    match &ip.spec.parent_ref {
        None => c.push("spec.parentRef: Required value".into()),
        Some(p) => {
            if p.resource.is_empty() {
                c.push("spec.parentRef.resource: Required value".into());
            }
            if p.name.is_empty() {
                c.push("spec.parentRef.name: Required value".into());
            }
        }
    }
}
