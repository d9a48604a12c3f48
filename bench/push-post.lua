-- wrk: POST a body shaped like a push (the receiver's own ceiling), with a webhook-id so it counts it.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["webhook-id"] = "bench:1"
wrk.headers["webhook-timestamp"] = "1767225600"
wrk.headers["webhook-signature"] = "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
wrk.body = '{"clock":"bench","id":"t1","fireTime":1000,"priority":0,"sequence":1,"attempt":1,"payload":null}'
