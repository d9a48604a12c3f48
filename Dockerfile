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
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/actuator/health || exit 1
# A fixed, pre-touched heap keeps snapshot pauses short (page faults dominate otherwise: docs/BENCHMARKS.md).
ENTRYPOINT ["java", "-XX:InitialRAMPercentage=75", "-XX:MaxRAMPercentage=75", "-XX:+AlwaysPreTouch", "-jar", "/app/timeservice.jar"]
