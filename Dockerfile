# toolsearchd image: the compiled daemon and CLI (scripts/build.mjs) run by plain node, next to the
# workspace's production dependencies. No TypeScript loader and no build tool in the image.
# The deps stage has a C++ toolchain so that installing builds the native token counter.
FROM node:20-bookworm-slim AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs ./libs
COPY services ./services
COPY proto ./proto
COPY types ./types
COPY tsconfig.base.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# The bundles are made with the lockfile's esbuild, in a stage of their own: the dev dependencies
# stay here. The lockfile places every package where the deps stage has it, so the bundles' imports
# of node_modules resolve the same in the final image.
FROM deps AS build
COPY scripts/build.mjs ./scripts/build.mjs
RUN npm ci --no-audit --no-fund && node scripts/build.mjs

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=deps /app /app
COPY --from=build /app/services/toolsearchd/dist ./services/toolsearchd/dist
COPY --from=build /app/services/toolsearch-cli/dist ./services/toolsearch-cli/dist
ENV TOOLSEARCH_NATS_URL=nats://nats:4222 TOOLSEARCH_REDIS_URL=redis://redis:6379 TOOLSEARCH_HTTP_HOST=0.0.0.0
# /mcp (MCP endpoint), /metrics, /healthz, /readyz
EXPOSE 8420
USER node
CMD ["node", "services/toolsearchd/dist/main.js"]
