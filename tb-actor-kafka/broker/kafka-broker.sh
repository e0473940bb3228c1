#!/usr/bin/env bash
# Runs one local Kafka broker (KRaft, localhost:9092) from the jars on Maven Central; no Docker, no download of
# Kafka's distribution. Data goes to tb-actor-kafka/broker/target/kafka-data; stop it with Ctrl+C.
#   tb-actor-kafka/broker/kafka-broker.sh          start (formats the storage on first use)
#   tb-actor-kafka/broker/kafka-broker.sh clean    forget every topic and offset, then start
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
if [[ "${1:-}" == "clean" ]]; then
    rm -rf target/kafka-data
fi
mkdir -p target
if [[ ! -s target/classpath.txt || pom.xml -nt target/classpath.txt ]]; then
    "$root/mvnw" -q -B -f pom.xml dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
fi
classpath="$(cat target/classpath.txt)"
if [[ ! -f target/kafka-data/meta.properties ]]; then
    cluster_id="$(java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classpath" kafka.tools.StorageTool random-uuid)"
    java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classpath" kafka.tools.StorageTool format --standalone \
        -t "$cluster_id" -c server.properties
fi
echo "Kafka broker starting on localhost:9092 (data in $(pwd)/target/kafka-data)"
exec java -Xms256m -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dorg.slf4j.simpleLogger.log.kafka.server.KafkaRaftServer=info \
    -cp "$classpath" kafka.Kafka server.properties
