//! TLS for `serve`: a certificate authority and a serving certificate made at start,
//! as kubeadm makes the cluster's CA and the API server's certificate at `init` — new
//! keys for every server, never written to disk but for the CA's certificate, which goes
//! into the kubeconfig (`certificate-authority-data`) so that every client verifies the
//! server as it would a real cluster's.
//!
//! rustls with the ring provider on both sides: the server's acceptor, and the `sim`
//! client's connector trusting the kubeconfig's CA.

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// The names the serving certificate is good for: the loopback address the server
/// listens on, and the API server's usual names (kubeadm's SANs).
pub const SERVING_NAMES: &[&str] = &[
    "127.0.0.1",
    "localhost",
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    "kubernetes.default.svc.cluster.local",
];

/// A CA and the serving certificate it signed.
pub struct Identity {
    /// The CA's certificate, PEM: what clients trust.
    pub ca_pem: String,
    /// The serving certificate's chain (the certificate, then the CA).
    chain: Vec<CertificateDer<'static>>,
    key: PrivatePkcs8KeyDer<'static>,
}

fn dn(common_name: &str) -> DistinguishedName {
    let mut d = DistinguishedName::new();
    d.push(DnType::CommonName, common_name);
    d
}

/// Make a CA (`kubernetes`, as kubeadm names it) and a serving certificate
/// (`kube-apiserver`) for [`SERVING_NAMES`], both ECDSA P-256, valid from an hour ago
/// (a client's clock a little behind) for a year.
pub fn make_identity() -> Result<Identity, String> {
    let e = |e: rcgen::Error| format!("cannot make the server's certificates: {e}");
    let now = OffsetDateTime::now_utc();
    let (from, to) = (now - Duration::hours(1), now + Duration::days(365));
    let ca_key = KeyPair::generate().map_err(e)?;
    let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(e)?;
    ca.distinguished_name = dn("kubernetes");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
    ];
    (ca.not_before, ca.not_after) = (from, to);
    let ca_cert = ca.self_signed(&ca_key).map_err(e)?;
    let key = KeyPair::generate().map_err(e)?;
    let names: Vec<String> = SERVING_NAMES.iter().map(|s| s.to_string()).collect();
    let mut leaf = CertificateParams::new(names).map_err(e)?;
    leaf.distinguished_name = dn("kube-apiserver");
    leaf.is_ca = IsCa::ExplicitNoCa;
    leaf.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    // Strict verifiers (OpenSSL's X509_STRICT, Python 3.13's default) want it.
    leaf.use_authority_key_identifier_extension = true;
    (leaf.not_before, leaf.not_after) = (from, to);
    let cert = leaf.signed_by(&key, &ca_cert, &ca_key).map_err(e)?;
    Ok(Identity {
        ca_pem: ca_cert.pem(),
        chain: vec![cert.der().clone(), ca_cert.der().clone()],
        key: PrivatePkcs8KeyDer::from(key.serialize_der()),
    })
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The server's TLS configuration: HTTP/1.1 by ALPN (clients that offer HTTP/2 too,
/// as kubectl does, take HTTP/1.1).
pub fn server_config(id: &Identity) -> Result<Arc<rustls::ServerConfig>, String> {
    let mut config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .and_then(|b| {
            b.with_no_client_auth()
                .with_single_cert(id.chain.clone(), PrivateKeyDer::Pkcs8(id.key.clone_key()))
        })
        .map_err(|e| format!("cannot set up TLS: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A client's TLS configuration that trusts the CA certificates in `ca_pem`.
pub fn client_config(ca_pem: &[u8]) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        let cert = cert.map_err(|e| format!("the certificate authority: {e}"))?;
        roots
            .add(cert)
            .map_err(|e| format!("the certificate authority: {e}"))?;
    }
    if roots.is_empty() {
        return Err("the certificate authority holds no certificate".into());
    }
    let mut config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_serving_certificate_is_verified_by_a_client_that_trusts_the_ca_for_each_name() {
        let id = make_identity().unwrap();
        let client = client_config(id.ca_pem.as_bytes()).unwrap();
        let server = server_config(&id).unwrap();
        for name in ["127.0.0.1", "localhost"] {
            let name = rustls::pki_types::ServerName::try_from(name).unwrap();
            let mut c = rustls::ClientConnection::new(client.clone(), name).unwrap();
            let mut s = rustls::ServerConnection::new(server.clone()).unwrap();
            // Handshake in memory.
            for _ in 0..10 {
                let mut buf = Vec::new();
                c.write_tls(&mut buf).unwrap();
                s.read_tls(&mut buf.as_slice()).unwrap();
                s.process_new_packets().unwrap();
                let mut buf = Vec::new();
                s.write_tls(&mut buf).unwrap();
                c.read_tls(&mut buf.as_slice()).unwrap();
                c.process_new_packets().unwrap();
            }
            assert!(!c.is_handshaking() && !s.is_handshaking());
        }
        let other = make_identity().unwrap();
        let stranger = client_config(other.ca_pem.as_bytes()).unwrap();
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
        let mut c = rustls::ClientConnection::new(stranger, name).unwrap();
        let mut s = rustls::ServerConnection::new(server).unwrap();
        let mut refused = false;
        for _ in 0..10 {
            let mut buf = Vec::new();
            c.write_tls(&mut buf).unwrap();
            s.read_tls(&mut buf.as_slice()).unwrap();
            let _ = s.process_new_packets();
            let mut buf = Vec::new();
            s.write_tls(&mut buf).unwrap();
            c.read_tls(&mut buf.as_slice()).unwrap();
            refused |= c.process_new_packets().is_err();
        }
        assert!(refused, "another CA's client refuses the certificate");
    }
}
