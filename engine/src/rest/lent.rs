//! The console's `kubectl get --raw PATH`: one GET answered by the handlers that
//! answer `serve`'s clients, on the console's own cluster, lent to a server for that
//! one request. Real kubectl sends the same request to `serve` and prints the same
//! body.

use super::*;

impl ApiServer {
    /// Answer `req`, a GET, on `c`, lent for this one request and given back. A GET
    /// writes nothing: the world is as it was, and the request log keeps the request
    /// as it keeps every request of the console's.
    pub fn answer_lent(c: &mut Cluster, req: &HttpRequest) -> Reply {
        if req.method != "GET" {
            return Reply::Response(not_found_path());
        }
        // The cluster goes home however the request ends, a panic included.
        struct Lent<'a> {
            home: &'a mut Cluster,
            api: ApiServer,
        }
        impl Drop for Lent<'_> {
            fn drop(&mut self) {
                std::mem::swap(self.home, &mut self.api.cluster);
            }
        }
        let cluster = std::mem::replace(c, Cluster::placeholder());
        let mut lent = Lent {
            home: c,
            api: ApiServer::serving(cluster),
        };
        // The reads' routes only (no write or watch path is reached from here).
        lent.api.cluster.finish_instant();
        match lent.api.route_read(req) {
            Routed::Answered(r) => r,
            _ => Reply::Response(not_found_path()),
        }
    }
}
