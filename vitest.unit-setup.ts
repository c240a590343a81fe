/**
 * Set-up of the unit project: Testing Library's `findBy…`/`waitFor` wait up to 5 s instead of 1 s.
 * The suite runs beside the browser tests on a 2-core machine (`npm test`), where a render can take
 * longer than a second; a wait that ends earlier is no faster and only made tests flaky.
 */
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 5_000 });
