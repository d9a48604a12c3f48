# syntax=docker/dockerfile:1
# Build with the project's own Maven wrapper, run on a JRE only, as a non-root user.

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY mvnw pom.xml ./
COPY .mvn .mvn
RUN ./mvnw -B -ntp dependency:go-offline
COPY openapi.yaml ./
COPY src src
RUN ./mvnw -B -ntp package -DskipTests \
 && cp target/timeservice-*.jar /src/timeservice.jar

FROM eclipse-temurin:17-jre
RUN groupadd --system timeservice && useradd --system --gid timeservice --home-dir /app timeservice \
 && apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /src/timeservice.jar /app/timeservice.jar
RUN mkdir -p /app/data && chown -R timeservice:timeservice /app
USER timeservice
# Without tokens the service is in protected mode: the HEALTHCHECK below comes from loopback inside the container
# and works; clients of the published port get 403 protected_mode until TIMESERVICE_SECURITY_WRITE_TOKENS /
# TIMESERVICE_SECURITY_READ_TOKENS are set, or TIMESERVICE_SECURITY_OPEN=true on a trusted network (README, Docker).
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/actuator/health || exit 1
# A fixed, pre-touched heap keeps snapshot pauses short (page faults dominate otherwise: docs/BENCHMARKS.md).
ENTRYPOINT ["java", "-XX:InitialRAMPercentage=75", "-XX:MaxRAMPercentage=75", "-XX:+AlwaysPreTouch", "-jar", "/app/timeservice.jar"]
