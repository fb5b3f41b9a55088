import { HARBOR } from './layout';

/**
 * The text files of an exported Harbor task that are not task.toml: the three images' Dockerfiles,
 * the compose file that adds the ERP service beside `main`, and the scripts Harbor runs.
 */

export const DEFAULT_BASE_IMAGE = 'node:20-bookworm-slim';

/** Where each program sits in its container's home; `../../precompiled` from it is the home's precompiled/ (src/events/validators.ts). */
export const PROGRAM_DIR = 'lib/bundle';

export function mainDockerfile(baseImage: string, agentToken: string): string {
  return `# The agent's container: the erp client on PATH, the handbook in the working folder, the
# agent's own token. Nothing of the scenario, its reference or any other user's token is here.
ARG BASE_IMAGE=${baseImage}
FROM \${BASE_IMAGE}
COPY main/erp/ /opt/erp/
RUN printf '#!/bin/sh\\nexec node /opt/erp/erp-client.cjs "$@"\\n' > /usr/local/bin/erp && chmod 755 /usr/local/bin/erp
COPY main/workspace/ ${HARBOR.workspace}/
ENV ERP_URL=http://${HARBOR.erpService}:${HARBOR.agentPort} \\
    ERP_TOKEN=${agentToken}
WORKDIR ${HARBOR.workspace}
`;
}

/** main's build context is environment/: the ERP service's folder stays out of it. */
export const MAIN_DOCKERIGNORE = 'erp/\n';

export function erpDockerfile(baseImage: string): string {
  return `# The ERP service: server, scenario (without its reference), counterparties and clock. The
# agent port listens on the compose network; the control port and the hook port on loopback only.
ARG BASE_IMAGE=${baseImage}
FROM \${BASE_IMAGE}
COPY . ${HARBOR.erpHome}/
WORKDIR ${HARBOR.erpHome}
EXPOSE ${HARBOR.agentPort}
CMD ["node", "${HARBOR.erpHome}/${PROGRAM_DIR}/erp-service.cjs", "serve", "${HARBOR.erpHome}"]
`;
}

export function verifierDockerfile(baseImage: string): string {
  return `# The verifier: the grader, the scenario and its reference. It runs in a container of its own
# (environment_mode = "separate") and reads what the steps' artifacts bring it.
ARG BASE_IMAGE=${baseImage}
FROM \${BASE_IMAGE}
COPY . ${HARBOR.tests}/
WORKDIR ${HARBOR.tests}
`;
}

export const TEST_SH = `#!/bin/bash
# ERP_TURN and ERP_TURNS come from the step's [steps.verifier] env.
exec node ${HARBOR.tests}/${PROGRAM_DIR}/verifier.cjs
`;

export const SOLVE_SH = `#!/bin/bash
# The oracle plays this step's turn through the API with the agent's token (ERP_URL, ERP_TOKEN).
cd ${HARBOR.workspace}
exec node /solution/oracle.cjs /solution/turn.json
`;

export function closeDayCommand(turn: number): string {
  return `node ${HARBOR.erpHome}/${PROGRAM_DIR}/erp-service.cjs close-day ${turn}`;
}

/**
 * Merged by Harbor over its own compose file, which builds `main` from environment/. The ERP
 * service's base image can be given at run time (BB_ERP_BASE_IMAGE); main's and the verifier's
 * default is the one the export wrote into their Dockerfiles.
 */
export function composeFile(baseImage: string): string {
  return `services:
  main:
    build:
      args:
        BASE_IMAGE: \${BB_ERP_BASE_IMAGE:-${baseImage}}
    depends_on:
      ${HARBOR.erpService}:
        condition: service_healthy

  ${HARBOR.erpService}:
    build:
      context: ./erp
      args:
        BASE_IMAGE: \${BB_ERP_BASE_IMAGE:-${baseImage}}
    pull_policy: build
    expose:
      - "${HARBOR.agentPort}"
    healthcheck:
      test: ["CMD", "test", "-f", "${HARBOR.runDir}/ready"]
      interval: 2s
      timeout: 5s
      retries: 150
      start_period: 2s
`;
}
