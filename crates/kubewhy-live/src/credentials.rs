//! Who kubewhy is to the API server, for the one line that says credentials were rejected:
//! the kubeconfig user (and file), or the pod's service account, and — for a client
//! certificate — when it expires. A rejected token and an expired certificate look the same on
//! the wire (HTTP 401); the certificate's own `notAfter` tells them apart.

use crate::LiveOptions;
use kube::config::Kubeconfig;

/// The identity a kubeconfig (or the in-cluster configuration) presents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// `user "admin" of context "prod" in /home/me/.kube/config`, or `the pod's service account`.
    pub who: String,
    /// The client certificate's expiry, when the user authenticates with one.
    pub cert_not_after: Option<jiff::Timestamp>,
}

/// Reads the identity the options select (best effort: nothing found is an empty `who`).
pub fn identity(opts: &LiveOptions) -> Identity {
    let (kc, file) = match &opts.kubeconfig {
        Some(p) => (Kubeconfig::read_from(p).ok(), p.display().to_string()),
        None => match std::env::var("KUBECONFIG") {
            Ok(v) if !v.is_empty() => (Kubeconfig::read().ok(), v),
            _ => {
                let home = std::env::var("HOME").unwrap_or_default();
                let default = format!("{home}/.kube/config");
                match Kubeconfig::read() {
                    Ok(kc) => (Some(kc), default),
                    Err(_) => {
                        return Identity {
                            who: "the pod's service account (in-cluster configuration)".into(),
                            cert_not_after: None,
                        };
                    }
                }
            }
        },
    };
    let Some(kc) = kc else {
        return Identity::default();
    };
    let context = opts
        .context
        .clone()
        .or_else(|| kc.current_context.clone())
        .unwrap_or_default();
    let user = kc
        .contexts
        .iter()
        .find(|c| c.name == context)
        .and_then(|c| c.context.as_ref())
        .and_then(|c| c.user.clone())
        .unwrap_or_default();
    let auth = kc
        .auth_infos
        .iter()
        .find(|a| a.name == user)
        .and_then(|a| a.auth_info.as_ref());
    let pem: Option<Vec<u8>> = auth.and_then(|a| {
        if let Some(data) = &a.client_certificate_data {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD
                .decode(data.trim())
                .ok()
        } else {
            a.client_certificate
                .as_ref()
                .and_then(|p| std::fs::read(p).ok())
        }
    });
    Identity {
        who: format!("user \"{user}\" of context \"{context}\" in {file}"),
        cert_not_after: pem.as_deref().and_then(cert_not_after),
    }
}

/// What a 401 means for this identity, in words: an expired certificate (and when), or
/// credentials the API server does not accept.
pub fn rejection(id: &Identity, now: jiff::Timestamp) -> String {
    match id.cert_not_after {
        Some(t) if t < now => format!("its client certificate expired on {t}"),
        Some(t) => {
            format!("its client certificate (valid until {t}) is not one the API server trusts")
        }
        None => "its token or password is not accepted (wrong, revoked or expired)".into(),
    }
}

/// The `notAfter` of the first certificate of a PEM (or DER) document.
pub fn cert_not_after(pem: &[u8]) -> Option<jiff::Timestamp> {
    let der = if pem.starts_with(b"-----BEGIN") {
        let text = std::str::from_utf8(pem).ok()?;
        let body: String = text
            .lines()
            .skip_while(|l| !l.starts_with("-----BEGIN CERTIFICATE"))
            .skip(1)
            .take_while(|l| !l.starts_with("-----END"))
            .collect();
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(body)
            .ok()?
    } else {
        pem.to_vec()
    };
    // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serialNumber,
    // signature, issuer, validity SEQUENCE { notBefore, notAfter }, … }, … }
    let (_, cert, _) = tlv(&der)?;
    let (_, mut tbs, _) = tlv(cert)?;
    let mut fields = Vec::new();
    while !tbs.is_empty() && fields.len() < 5 {
        let (tag, value, rest) = tlv(tbs)?;
        fields.push((tag, value));
        tbs = rest;
    }
    let skip = usize::from(fields.first()?.0 == 0xa0);
    let (_, validity) = fields.get(3 + skip)?;
    let (_, _, rest) = tlv(validity)?;
    let (tag, after, _) = tlv(rest)?;
    let s = std::str::from_utf8(after).ok()?;
    let (year, rest) = match tag {
        0x17 => {
            let yy: i32 = s.get(..2)?.parse().ok()?;
            (if yy >= 50 { 1900 + yy } else { 2000 + yy }, s.get(2..)?)
        }
        0x18 => (s.get(..4)?.parse().ok()?, s.get(4..)?),
        _ => return None,
    };
    let n = |r: std::ops::Range<usize>| rest.get(r).and_then(|x| x.parse::<i8>().ok());
    let dt =
        jiff::civil::date(year as i16, n(0..2)?, n(2..4)?).at(n(4..6)?, n(6..8)?, n(8..10)?, 0);
    dt.to_zoned(jiff::tz::TimeZone::UTC)
        .ok()
        .map(|z| z.timestamp())
}

/// One DER tag-length-value: (tag, value, what follows).
fn tlv(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let tag = *b.first()?;
    let first = *b.get(1)? as usize;
    let (len, start) = if first < 0x80 {
        (first, 2)
    } else {
        let n = first & 0x7f;
        if n == 0 || n > 4 {
            return None;
        }
        let mut len = 0usize;
        for i in 0..n {
            len = (len << 8) | *b.get(2 + i)? as usize;
        }
        (len, 2 + n)
    };
    let end = start.checked_add(len)?;
    Some((tag, b.get(start..end)?, b.get(end..)?))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A real certificate (`openssl req -x509 -newkey ec … -days 1`, valid until 2026-11-26
    /// 20:44:05 UTC as `openssl x509 -noout -enddate` prints it).
    pub(crate) const CERT: &str = "-----BEGIN CERTIFICATE-----
MIIBgzCCASmgAwIBAgIUV52NKcROMDpM/KcUv1EKva/j3y8wCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMa3ViZXdoeS10ZXN0MB4XDTI2MTEyNTIwNDQwNVoXDTI2MTEy
NjIwNDQwNVowFzEVMBMGA1UEAwwMa3ViZXdoeS10ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAE9jIx/72GJPW0eapHpkZ/47RKSw9bbE4sIAzuZ2uahzK4oP0u
CzV5+iLELOLOyqiQJH/YleYtZGCxAh/xePh1EKNTMFEwHQYDVR0OBBYEFBJxAV8y
L9/ebexiCtZ2wrmecn1HMB8GA1UdIwQYMBaAFBJxAV8yL9/ebexiCtZ2wrmecn1H
MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhAJoEIoyNEsO28vc+
K9G6UvnhTfI97hH61JN4LtD14LZaAiAAmY6C+MDTP3T/bocq/3gMnjP9M4MqI3j2
pF0mqvudeQ==
-----END CERTIFICATE-----
";

    #[test]
    fn a_certificates_expiry_is_read_and_named() {
        let t = cert_not_after(CERT.as_bytes()).expect("notAfter");
        assert_eq!(t.to_string(), "2026-11-26T20:44:05Z");
        let id = Identity {
            who: "user \"admin\"".into(),
            cert_not_after: Some(t),
        };
        assert_eq!(
            rejection(&id, "2026-12-01T00:00:00Z".parse().unwrap()),
            "its client certificate expired on 2026-11-26T20:44:05Z"
        );
        assert_eq!(cert_not_after(b"not a certificate"), None);
        assert_eq!(cert_not_after(&[0x30, 0x85, 1, 2, 3, 4, 5]), None);
    }
}
