# toolsearchd image: the workspace with its dependencies, run through tsx (no build step).
# The build stage has a C++ toolchain so that installing builds the native token counter.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs ./libs
COPY services ./services
COPY proto ./proto
COPY types ./types
COPY tsconfig.base.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm install --no-save --no-audit --no-fund tsx@4.23.15

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
ENV TOOLSEARCH_NATS_URL=nats://nats:4222 TOOLSEARCH_REDIS_URL=redis://redis:6379 TOOLSEARCH_HTTP_HOST=0.0.0.0
# /mcp (MCP endpoint), /metrics, /healthz, /readyz
EXPOSE 8420
USER node
CMD ["node", "--import", "tsx", "services/toolsearchd/src/main.ts"]
