#!/usr/bin/env bash
# gate/image-at.sh REV… — prints, one per line, the path of the contracts' image at each commit
# REV (a buf image with its imports: a FileDescriptorSet), compiled once and kept in the gate's
# cache (`gate image`). The harness's released clients (compatibility-tests/released/) read it.
exec "$(dirname "$0")/gate" image "$@"
