// Values the transport hands to handlers without handlers knowing the transport: the
// start-up module fills them from the connection, the REST twin from its own request.
import { createContextKey } from "@connectrpc/connect";

/** The peer's IP address, for the per-address login limit. Proxies' forwarded-for headers
 * are not trusted: they are set by the caller. */
export const clientAddressKey = createContextKey<string>("unknown", { description: "client address" });
