import { JOBS } from '@/lib/server/verify-pool/jobs';
import { serveJobs } from '@/lib/server/verify-pool/serve';

serveJobs(JOBS);
