# A small production image of the Node server: `docker build -t interlingua .`, then
#   docker run -p 8787:8787 -v "$PWD/my-config.json:/config.json:ro" -e INTERLINGUA_CONFIG=/config.json \
#     -e ANTHROPIC_API_KEY interlingua
# Arguments after the image name replace the default `--host 0.0.0.0`, e.g. `check --config /config.json`.
# See README, "Running in production (Node)". test/dockerfile.test.ts checks this file's shape.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- build: all dependencies, then dist/cli.js (scripts/build-cli.ts, esbuild) -------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: `prepare` would build before the sources are here; the build runs below.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build-cli.ts scripts/node-bundle.ts scripts/
COPY src/ src/
COPY translators/ translators/
RUN npm run build

# --- runtime: production dependencies and the compiled command only ------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=8787
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/cli.js dist/cli.js
COPY --from=build /app/dist/chunks/ dist/chunks/
COPY config.schema.json ./
COPY examples/ examples/
# The image's own unprivileged user; nothing under /app is writable by it.
USER node
EXPOSE 8787
# No curl in slim images: Node itself asks /health.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "require('http').get('http://127.0.0.1:'+(process.env.PORT||8787)+'/health',r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).setTimeout(4000,function(){this.destroy()})"]
# Node is PID 1 and handles SIGTERM itself: `docker stop` finishes open requests, then exits 0.
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["--host", "0.0.0.0"]
