# Production image: the server against an external PostgreSQL (DATABASE_URL).
# Node 24: the code runs on 20.19 and later, but Node 20 is past its end of life, and on 24 a move
# costs a third to a half less server CPU (README, "Benchmarks").
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages @mizerka/rules, @mizerka/bots, @mizerka/tournaments and @mizerka/client (libs/): npm ci links them
# into node_modules. The client SDK is built with the rest but the server does not load it.
COPY libs/rules/package.json ./libs/rules/
COPY libs/bots/package.json ./libs/bots/
COPY libs/client/package.json ./libs/client/
COPY libs/tournaments/package.json ./libs/tournaments/
# Install without the prepare step (it builds), then build once the sources are in.
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
# node_modules/@mizerka/{rules,bots,tournaments} link here; Node loads the compiled libraries from their dist.
COPY --from=build /app/libs/rules/package.json ./libs/rules/
COPY --from=build /app/libs/rules/dist/src ./libs/rules/dist/src
COPY --from=build /app/libs/bots/package.json ./libs/bots/
COPY --from=build /app/libs/bots/dist/src ./libs/bots/dist/src
COPY --from=build /app/libs/tournaments/package.json ./libs/tournaments/
COPY --from=build /app/libs/tournaments/dist/src ./libs/tournaments/dist/src
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
# The image's own unprivileged user.
USER node
EXPOSE 3000
# package.json's "start", run by node itself so that SIGTERM reaches the server (it then closes
# gracefully); test/deploy/compose.test.ts keeps the two alike.
CMD ["node", "dist/apps/api/src/main.js"]
