"""The Python compatibility client: acme-contracts (the SDK wheel) + grpcio, as the executor of
the harness's cases and in the golden modes. Its contract: compatibility-tests/README.md."""
