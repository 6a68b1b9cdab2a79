// Writes docs/analytics.md and analytics/dashboards.ndjson from the data dictionary and the twelve
// questions (analytics/*.json); test/unit/analytics-dictionary.test.ts fails when either differs
// from what this writes.
//   npm run docs:analytics
import { writeFileSync } from 'node:fs';
import { projectPath } from '../src/platform/project-paths.js';
import { readDictionary, readQuestions } from './analytics/analyst-questions.js';
import { dashboardObjects, toNdjson } from './analytics/dashboard-objects.js';
import { renderAnalyticsDoc } from './analytics/render-analytics-doc.js';

const questions = readQuestions();
writeFileSync(projectPath('docs', 'analytics.md'), renderAnalyticsDoc(readDictionary(), questions));
writeFileSync(projectPath('analytics', 'dashboards.ndjson'), toNdjson(dashboardObjects(questions)));
console.error('wrote docs/analytics.md and analytics/dashboards.ndjson');
