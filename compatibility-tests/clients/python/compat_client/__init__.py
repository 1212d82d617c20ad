"""The Python compatibility driver: acme-contracts (the SDK wheel) + grpcio against the real
services and the golden vectors. The contract it implements: compatibility-tests/README.md."""
