"""Club mode: many boxes, one league, federated over MQTT 5 (docs/club.md).

Each box publishes its live tables and the public record of every game that ends
(:mod:`~firmware_host.club.publisher`, from the journal's outbox:
:mod:`~firmware_host.club.outbox`);
the hub ingests them exactly once, in order per box (:mod:`~firmware_host.club.hub`) into the
league (:mod:`~firmware_host.club.league`, rated with openskill). The broker is Mosquitto
(:mod:`~firmware_host.club.broker`), which the hub restarts when it dies
(:mod:`~firmware_host.club.supervisor`); the topic tree and the payloads are
:mod:`~firmware_host.club.topics`. Nothing of this package is imported unless club mode is
configured (paho-mqtt and openskill load only then).
"""
