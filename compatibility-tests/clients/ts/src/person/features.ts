// The person-spring features by name (compatibility-tests/README.md, "person-spring features").
import type { Feature } from "../report.js";
import type { PersonSession } from "./session.js";
import { bidi, clientStream, serverStream, unary } from "./calls.js";
import { authMetadata, cancelMidStream, deadline, errorDetails } from "./failures.js";
import { fieldPresence, largeMessage, unicode, unknownFields } from "./data.js";

export function personFeatures(s: PersonSession): Record<string, Feature> {
  return {
    unary: () => unary(s),
    "client-stream": () => clientStream(s),
    "server-stream": () => serverStream(s),
    bidi: () => bidi(s),
    "auth-metadata": () => authMetadata(s),
    deadline: () => deadline(s),
    "cancel-mid-stream": () => cancelMidStream(s),
    "error-details": () => errorDetails(s),
    "large-message": () => largeMessage(s),
    unicode: () => unicode(s),
    "field-presence": () => fieldPresence(s),
    "unknown-fields": () => unknownFields(s),
  };
}
